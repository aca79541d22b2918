import { beforeAll, describe, expect, it } from 'vitest';
import { finish } from '../turns.ts';
import { expectAccessible, screenshot, visible } from './support/browser.ts';
import { composer, startFromHome, timeline, untilAgentStatus } from './support/conversation.ts';
import { useWebSuite } from './support/suite.ts';

/**
 * Sharing a conversation in the browser, against the real stack (`bosun serve`, a bubblewrap sandbox, llm-replay):
 * the owner shares it from the conversation page, a signed-out browser reads it at its public address, read-only;
 * once the owner stops sharing, the address shows nothing of it.
 */

const TASK = 'shared task: tell the readers something';
const ANSWER = 'This answer is for everyone with the link.';
const suite = useWebSuite({
  script: { turns: [{ when: { last_user_message_contains: 'shared task' }, ...finish(ANSWER) }] },
});
beforeAll(() => suite.configureLlm());

describe('a shared conversation in the browser', { timeout: 240_000 }, () => {
  it('is shared by its owner and read signed out, read-only; stopping sharing takes it away', async () => {
    const owner = await suite.signedInPage();
    const id = await startFromHome(owner, TASK);
    await visible(timeline(owner).getByText(ANSWER));
    await untilAgentStatus(owner, 'Finished');

    await owner.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = owner.getByRole('dialog', { name: 'Share this conversation' });
    await dialog.getByRole('button', { name: 'Share with a link' }).click();
    const linkBox = dialog.getByRole('textbox', { name: 'Link to the shared conversation' });
    await visible(linkBox);
    const link = await linkBox.inputValue();
    expect(link).toBe(`${suite.app.url}/shared/conversations/${id}`);
    expect((await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [id] } }))[0]?.public).toBe(true);
    await expectAccessible(owner, 'the share dialog');
    await screenshot(owner, 'shared-conversation-dialog');
    await owner.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await visible(owner.getByRole('button', { name: 'Shared', exact: true }));

    // Another browser, signed out: the conversation's messages, and no way to write to it.
    const reader = await suite.page();
    await reader.goto(link);
    await visible(reader.getByRole('heading', { level: 1, name: TASK }));
    await visible(reader.getByText('Read-only shared copy'));
    await visible(timeline(reader).getByText(TASK));
    await visible(timeline(reader).getByText(ANSWER));
    // The reader is not who wrote it: the owner's message is the user's, not "You".
    await visible(timeline(reader).getByRole('article', { name: 'The user said' }));
    expect(await timeline(reader).getByRole('article', { name: 'You said' }).count()).toBe(0);
    expect(new URL(reader.url()).pathname).toBe(`/shared/conversations/${id}`);
    expect(await composer(reader).count()).toBe(0);
    expect(await reader.getByRole('button', { name: /^(Send|Pause|Share|Stop)$/ }).count()).toBe(0);
    expect(await reader.getByRole('button', { name: /account menu/i }).count()).toBe(0);
    await expectAccessible(reader, 'the shared conversation, signed out');
    await screenshot(reader, 'shared-conversation');

    // The owner stops sharing: the same address says it is not shared, and shows none of it.
    await owner.getByRole('button', { name: 'Shared', exact: true }).click();
    await owner
      .getByRole('dialog', { name: 'Share this conversation' })
      .getByRole('button', { name: 'Stop sharing' })
      .click();
    await visible(owner.getByRole('button', { name: 'Share', exact: true }));
    expect((await suite.app.api.get('/api/v1/app-conversations', { query: { ids: [id] } }))[0]?.public).toBe(false);
    await reader.reload();
    await visible(reader.getByRole('heading', { level: 1, name: 'This conversation is not shared' }));
    expect(await reader.getByText(ANSWER).count()).toBe(0);
    await screenshot(reader, 'shared-conversation-stopped');
  });
});
