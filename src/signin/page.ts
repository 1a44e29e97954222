import { createHash } from 'node:crypto';

/** HTML that is already escaped: what `html` makes, and what it inserts without escaping again. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside an element and inside a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => entities[character]!);

function fragment(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template of HTML whose every interpolated value is escaped, unless it is itself `html` (or a list of it): a page
 * cannot show a name or a message as markup by forgetting to escape it.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(
    strings.reduce((out, text, index) => out + text + (index < values.length ? fragment(values[index]) : ''), ''),
  );
}

/**
 * The pages' only style, inline so that the pages load nothing; the CSP allows exactly this text by its hash. Focus is
 * always visible, controls are at least 44 px tall (WCAG 2.5.5), and colours keep 4.5:1 contrast.
 */
const style = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1f24; background: #f4f5f7; }
body { margin: 0; }
main { max-width: 26rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid #d0d4da; border-radius: 8px; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input[type=text], input[type=email], input[type=password] { box-sizing: border-box; width: 100%; min-height: 44px; padding: 0.5rem; font: inherit; border: 1px solid #6b7280; border-radius: 4px; }
input[aria-invalid=true] { border: 2px solid #b42318; }
.hint { color: #4b5563; font-size: 0.9rem; margin: 0.25rem 0 0; }
.alert:empty { display: none; }
.alert { margin: 1rem 0; padding: 0.75rem; border: 2px solid #b42318; border-radius: 4px; color: #7a1a12; background: #fef3f2; }
.notice { margin: 1rem 0; padding: 0.75rem; border: 1px solid #1d4ed8; border-radius: 4px; background: #eff6ff; }
button { min-height: 44px; margin-top: 1.5rem; padding: 0.5rem 1.25rem; font: inherit; font-weight: 600; border-radius: 4px; border: 2px solid #1d4ed8; background: #1d4ed8; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1d4ed8; }
:focus-visible { outline: 3px solid #b45309; outline-offset: 2px; }
a { color: #1d4ed8; }
`;
const styleHash = createHash('sha256').update(style).digest('base64');

/**
 * Nothing but the inline style above: no scripts, images, fonts or frames, and no page may frame these (clickjacking
 * a consent button). `form-action` is left out: a consent form's answer redirects to the app's own callback, which
 * browsers would check against it.
 */
export const pageSecurityPolicy = [
  "default-src 'none'",
  `style-src 'sha256-${styleHash}'`,
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A whole page in the shared layout: `lang`, a `main` landmark whose heading is the title, the style above; answered
 * with the CSP, never cached (the pages hold CSRF tokens and personal names), and never framed. `main` is HTML: make it
 * with `html` so that what it shows is escaped.
 */
export function htmlPage(options: {
  title: string;
  main: string | Html;
  status?: number;
  headers?: HeadersInit;
}): Response {
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Lectern</title>
<style>${new Html(style)}</style>
</head>
<body>
<main>
<h1>${options.title}</h1>
${new Html(String(options.main))}
</main>
</body>
</html>
`;
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': pageSecurityPolicy,
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  const extra = new Headers(options.headers);
  for (const [name, value] of extra) if (name !== 'set-cookie') headers.set(name, value);
  // Iterating Headers joins Set-Cookie values into one line; each cookie must stay a header of its own.
  for (const cookie of extra.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(page.text, { status: options.status ?? 200, headers });
}
