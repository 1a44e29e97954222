/**
 * A student's or teacher's dashboard: their sections and groups, live events, and a group made and removed through
 * the mutation payloads. It signs in with Lectern (./sign-in.ts); the access token stays in memory only.
 */
import { type Named, type Session, connect } from './api';
import { type Settings, finishSignIn, savedSettings, signIn as startSignIn, signOut } from './sign-in';

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const signIn = element<HTMLFormElement>('sign-in');
const newGroup = element<HTMLFormElement>('new-group');
const problem = element('problem');

let session: Session | null = null;
let signedIn: { settings: Settings; token: string } | null = null;
let stopEvents: (() => void) | null = null;

function show(message: string) {
  problem.textContent = message;
}

function listItem(text: string, onDelete?: () => void) {
  const item = document.createElement('li');
  item.textContent = text;
  if (onDelete) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Delete';
    button.setAttribute('aria-label', `Delete ${text}`);
    button.addEventListener('click', onDelete);
    item.append(button);
  }
  return item;
}

async function render() {
  if (!session) return;
  const { viewer } = await session.dashboard();
  element('viewer-name').textContent = viewer.nameDisplay;
  element('sections').replaceChildren(
    ...viewer.sections.nodes.map((section) => listItem(`${section.course.title}: ${section.title}`)),
  );
  element('groups').replaceChildren(
    ...viewer.groups.nodes.map((group: Named) => listItem(group.title, () => removeGroup(group))),
  );
}

async function removeGroup(group: Named) {
  const { userErrors } = await session!.deleteGroup(group.id);
  show(userErrors.map((error) => error.message).join('; '));
  await render();
}

async function start(settings: Settings, token: string) {
  session = connect(settings.server, token);
  try {
    await render();
  } catch (error) {
    session.close();
    session = null;
    show(`Could not sign in: ${(error as Error).message}`);
    return;
  }
  signedIn = { settings, token };
  show('');
  signIn.hidden = true;
  element('dashboard').hidden = false;
  stopEvents = session.follow(
    (event) => {
      const title = event.object?.title ? `: ${event.object.title}` : '';
      element('events').prepend(listItem(`${event.typeName}${title}`));
      void render();
    },
    (error) => show(error.message),
  );
}

signIn.addEventListener('submit', (event) => {
  event.preventDefault();
  const form = new FormData(signIn);
  const settings = { server: String(form.get('server')).replace(/\/$/, ''), clientId: String(form.get('client_id')) };
  startSignIn(settings).catch((error: Error) => show(`Could not sign in: ${error.message}`));
});

newGroup.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = newGroup.elements.namedItem('title') as HTMLInputElement;
  const { group, userErrors } = await session!.createGroup(input.value);
  // A refused input is data: each error names the member at fault.
  show(userErrors.map((error) => `${error.field?.at(-1) ?? 'input'}: ${error.message}`).join('; '));
  if (group) input.value = '';
  await render();
});

element('sign-out').addEventListener('click', () => {
  stopEvents?.();
  session?.close();
  session = null;
  if (signedIn) signOut(signedIn.settings, signedIn.token).catch((error: Error) => show(error.message));
  signedIn = null;
  element('dashboard').hidden = true;
  signIn.hidden = false;
});

const link = new URLSearchParams(location.search);
const saved = savedSettings();
(signIn.elements.namedItem('server') as HTMLInputElement).value =
  link.get('server') ?? saved?.server ?? location.origin;
(signIn.elements.namedItem('client_id') as HTMLInputElement).value = link.get('client_id') ?? saved?.clientId ?? '';
// Back from Lectern with a code; or a reload of a tab that signed in, which signs in again without a prompt.
finishSignIn()
  .then((answer) => {
    if (answer) return start(answer.settings, answer.token);
    if (saved && !link.has('state')) return startSignIn(saved, true);
  })
  .catch((error: Error) => show(`Could not sign in: ${error.message}`));
