import { csrfField } from './csrf';
import { html, htmlPage } from './page';

/** What an app acting for a user can do: there are no scopes, so it is everything the user can do. */
export const appAbilities = [
  'See what you can see here: your profile, courses, groups, posts, grades and files.',
  'Make the changes you can make, as you.',
  'Keep doing so until you take the approval back.',
];

/**
 * "<App> wants to act for you": what the app will be able to do, and Approve / Deny buttons posting `decision` with
 * the hidden fields and the session's CSRF token to `action`. The flows that ask (OAuth 1.0a and 2.0 authorization)
 * route to it and judge the answer; this page only shows the question.
 */
export function consentPage(options: {
  appName: string;
  abilities: string[];
  action: string;
  hidden: Record<string, string>;
  csrfToken: string;
}): Response {
  const hidden = Object.entries(options.hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`,
  );
  return htmlPage({
    title: `${options.appName} wants to act for you`,
    main: html`<p>If you approve, <strong>${options.appName}</strong> will be able to:</p>
<ul aria-label="What ${options.appName} will be able to do">
${options.abilities.map((ability) => html`<li>${ability}</li>\n`)}</ul>
<p>It acts as you until you take the approval back. Approve only apps you trust.</p>
<form method="post" action="${options.action}">
<input type="hidden" name="${csrfField}" value="${options.csrfToken}">
${hidden}<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</form>`,
  });
}
