import { describe, expect, it } from 'vitest';
import { consentPage } from '../../src/signin/consent';
import { escapeHtml, html, htmlPage } from '../../src/signin/page';

/** The attributes of each tag named `tag` in `body`, in document order. */
function tags(body: string, tag: string): Record<string, string>[] {
  return [...body.matchAll(new RegExp(`<${tag}\\b([^>]*)>`, 'g'))].map((match) =>
    Object.fromEntries([...match[1]!.matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((pair) => [pair[1]!, pair[2] ?? ''])),
  );
}

describe('consentPage', () => {
  const response = consentPage({
    appName: 'Grade <Sync> & "Co"',
    abilities: ['Read your courses and grades', 'Post to your groups <b>now</b>'],
    action: '/oauth/authorize',
    hidden: { oauth_token: 'abc"def', state: '<x>' },
    csrfToken: 'token-123',
  });

  it('asks with a heading naming the app, escaped, and lists what it will be able to do', async () => {
    const body = await response.clone().text();
    expect(response.status).toBe(200);
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('<h1>Grade &lt;Sync&gt; &amp; &quot;Co&quot; wants to act for you</h1>');
    expect(body).toContain('<title>Grade &lt;Sync&gt; &amp; &quot;Co&quot; wants to act for you · Lectern</title>');
    expect([...body.matchAll(/<li>([^<]*)<\/li>/g)].map((match) => match[1])).toEqual([
      'Read your courses and grades',
      'Post to your groups &lt;b&gt;now&lt;/b&gt;',
    ]);
    expect(body).not.toMatch(/<(b|Sync|x)>/);
  });

  it('posts approve or deny to the action with the hidden fields and the CSRF token', async () => {
    const body = await response.clone().text();
    expect(tags(body, 'form')).toEqual([{ method: 'post', action: '/oauth/authorize' }]);
    expect(tags(body, 'input')).toEqual([
      { type: 'hidden', name: 'csrf', value: 'token-123' },
      { type: 'hidden', name: 'oauth_token', value: 'abc&quot;def' },
      { type: 'hidden', name: 'state', value: '&lt;x&gt;' },
    ]);
    // Buttons are focusable by default: none is disabled or taken out of the tab order, and each has a visible name.
    const buttons = [...body.matchAll(/<button\b([^>]*)>([^<]+)<\/button>/g)].map((match) => ({
      ...tags(`<button${match[1]}>`, 'button')[0],
      label: match[2],
    }));
    expect(buttons).toEqual([
      { type: 'submit', name: 'decision', value: 'approve', label: 'Approve' },
      { type: 'submit', name: 'decision', value: 'deny', class: 'secondary', label: 'Deny' },
    ]);
    expect(body).not.toMatch(/tabindex|disabled/);
  });

  it('cannot be framed or cached, and loads nothing from anywhere', () => {
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'/);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('html', () => {
  it('escapes what it inserts unless it is html itself, and keeps two cookies two', async () => {
    const name = '<script>alert(1)</script>';
    expect(html`<p title="${name}">${name}${html`<br>`}${[html`<i>`, '&']}</p>`.text).toBe(
      `<p title="${escapeHtml(name)}">&lt;script&gt;alert(1)&lt;/script&gt;<br><i>&amp;</p>`,
    );
    const headers = new Headers();
    headers.append('set-cookie', 'a=1; Path=/');
    headers.append('set-cookie', 'b=2; Path=/');
    const page = htmlPage({ title: 'T', main: html`<p>x</p>`, status: 418, headers });
    expect(page.status).toBe(418);
    expect(page.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });
});
