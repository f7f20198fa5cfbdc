/**
 * The tables' chat over the real protocol, against a running room: who may speak (players seated at
 * the table), who hears (everyone watching it, nobody else), what a line may hold (one line of at
 * most 200 characters), how often (five at once, then one every three seconds), and the staff's mute
 * (`felt admin mute`, on the running room's data folder), logged in the staff log.
 */
import fc from 'fast-check';
import type { ChatMessage, ServerMessage } from '@felt/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanChatText } from '../src/chat/chat.js';
import { adminAudit } from '../src/ledger/admin.js';
import { adminMute } from '../src/staff/mute.js';
import { signedUp, TestClient, startTestRoom, uniqueName, type TestRoom } from './transport-client.js';

let room: TestRoom;
beforeAll(async () => {
  room = await startTestRoom();
});
afterAll(async () => {
  await room.close();
});

const isChat = (m: ServerMessage): m is ChatMessage => m.op === 'chat';

/** A new player seated at `tableId` (seat `seat`), watching it. */
async function seated(tableId: string, seat: number) {
  const name = uniqueName('chat');
  const player = await signedUp(room, name);
  await player.client.ok('seat-take', { tableId, seat, buyIn: 5000 });
  return { ...player, name };
}

describe('table chat (real protocol)', () => {
  it("a seated player's line reaches everyone watching the table, cleaned to one line, and nobody elsewhere", async () => {
    const ann = await seated('holdem-nl-play-100', 0);
    const watcher = await signedUp(room);
    await watcher.client.ok('table-open', { tableId: 'holdem-nl-play-100' });
    const anonymous = await TestClient.connect(room);
    const elsewhere = await seated('omaha-pl-play-100', 0);

    const heard = [ann.client, watcher.client].map((client) => client.next(isChat, 10_000));
    const elsewhereHeard = elsewhere.client.next(isChat, 10_000);
    expect(
      await ann.client.ok('chat-send', { tableId: 'holdem-nl-play-100', text: ' gl\nhf \u0007 all ' }),
    ).toEqual({});
    for (const message of await Promise.all(heard)) {
      expect(message).toMatchObject({
        op: 'chat',
        tableId: 'holdem-nl-play-100',
        from: { id: ann.id, name: ann.name },
        text: 'gl hf all',
      });
      expect(Math.abs(message.at - Date.now())).toBeLessThan(60_000);
    }
    // Frames reach a connection in order: the first chat the other table sees is its own.
    await elsewhere.client.ok('chat-send', { tableId: 'omaha-pl-play-100', text: 'hello' });
    expect(await elsewhereHeard).toMatchObject({ tableId: 'omaha-pl-play-100', text: 'hello' });
    expect(anonymous.received.filter(isChat)).toEqual([]);
    for (const client of [ann.client, watcher.client, anonymous, elsewhere.client]) client.close();
  });

  it('only a player seated at the table speaks there: a watcher, a stranger and a logged-out socket are refused, and nothing is sent', async () => {
    const ann = await seated('holdem-fl-play-100', 0);
    const watcher = await signedUp(room);
    await watcher.client.ok('table-open', { tableId: 'holdem-fl-play-100' });
    expect(
      await watcher.client.request('chat-send', { tableId: 'holdem-fl-play-100', text: 'hi' }),
    ).toMatchObject({
      op: 'error',
      code: 'NOT_SEATED',
    });
    expect(await ann.client.request('chat-send', { tableId: 'no-such-table', text: 'hi' })).toMatchObject({
      code: 'NO_SUCH_TABLE',
    });
    const anonymous = await TestClient.connect(room);
    expect(await anonymous.request('chat-send', { tableId: 'holdem-fl-play-100', text: 'hi' })).toMatchObject(
      {
        code: 'NOT_AUTHENTICATED',
      },
    );
    // A line that cleans to nothing, or to more than 200 characters, is refused.
    for (const text of [' \n\t ', 'x'.repeat(201)]) {
      expect(await ann.client.request('chat-send', { tableId: 'holdem-fl-play-100', text })).toMatchObject({
        code: 'BAD_MESSAGE',
      });
    }
    await ann.client.ok('ping');
    expect([...ann.client.received, ...watcher.client.received].filter(isChat)).toEqual([]);
    for (const client of [ann.client, watcher.client, anonymous]) client.close();
  });

  it('five lines at once, then RATE_LIMITED until his allowance grows back (one line every three seconds)', async () => {
    const ann = await seated('holdem-pl-play-100', 0);
    for (let i = 0; i < 5; i++)
      await ann.client.ok('chat-send', { tableId: 'holdem-pl-play-100', text: `line ${i}` });
    expect(
      await ann.client.request('chat-send', { tableId: 'holdem-pl-play-100', text: 'one more' }),
    ).toMatchObject({
      code: 'RATE_LIMITED',
    });
    // His allowance is his account's, not his connection's.
    const second = await TestClient.connect(room);
    await second.ok('resume', { token: ann.token });
    expect(await second.request('chat-send', { tableId: 'holdem-pl-play-100', text: 'again' })).toMatchObject(
      {
        code: 'RATE_LIMITED',
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 3_100));
    await ann.client.ok('chat-send', { tableId: 'holdem-pl-play-100', text: 'after the wait' });
    expect(ann.client.received.filter(isChat).map((m) => m.text)).toEqual([
      'line 0',
      'line 1',
      'line 2',
      'line 3',
      'line 4',
      'after the wait',
    ]);
    ann.client.close();
    second.close();
  });

  it('felt admin mute silences him on the running room at once (MUTED), he keeps his seat; unmute lets him speak; both are in the staff log', async () => {
    const ann = await seated('holdem-hpl-play-100', 0);
    const { name } = ann;
    const logged = async () => {
      const audit = await adminAudit(room.dataDir);
      if (!('staffLog' in audit.output)) throw new Error('no audit');
      expect(audit.output.staffLog.intact).toBe(true);
      return audit.output.staffLog.entries;
    };
    const before = await logged();
    expect((await adminMute(room.dataDir, name, true)).output).toMatchObject({ ok: true, action: 'mute' });
    expect(
      await ann.client.request('chat-send', { tableId: 'holdem-hpl-play-100', text: 'hi' }),
    ).toMatchObject({
      code: 'MUTED',
    });
    expect((await ann.client.ok('hand-summary', { tableId: 'holdem-hpl-play-100' })).summary).toBeNull();
    expect((await adminMute(room.dataDir, name, false)).output).toMatchObject({ ok: true, action: 'unmute' });
    await ann.client.ok('chat-send', { tableId: 'holdem-hpl-play-100', text: 'thanks' });
    expect(await logged()).toBe(before + 2);
    expect((await adminMute(room.dataDir, 'nobody-here', true)).output).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_USER' },
    });
    ann.client.close();
  });
});

describe('chat text', () => {
  it('a cleaned line holds no control or format character, no line break, no doubled or outer space, and cleaning it again changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.string({ maxLength: 40 }), (a, b) => {
        const clean = cleanChatText(`${a}\n\r\u2028${b}\u0000\u200e`);
        expect(clean).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
        expect(clean).not.toMatch(/\s\s|^\s|\s$/);
        expect(cleanChatText(clean)).toBe(clean);
      }),
    );
  });
});
