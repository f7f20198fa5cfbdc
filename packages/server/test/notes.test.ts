/**
 * Players' notes over the real protocol, against a running room: a note and its colour tag are the
 * writer's own, kept with his account (another connection of his sees them), never shown to anyone
 * else; bad requests are refused and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUp, TestClient, startTestRoom, type TestRoom } from './transport-client.js';

let room: TestRoom;
beforeAll(async () => {
  room = await startTestRoom();
});
afterAll(async () => {
  await room.close();
});

describe('player notes (real protocol)', () => {
  it('a note is kept with his account, replaced by the next, seen on his other connections and by nobody else', async () => {
    const ann = await signedUp(room);
    const bob = await signedUp(room);
    const cleo = await signedUp(room);
    expect(await ann.client.ok('notes-list')).toEqual({ notes: [] });
    await ann.client.ok('note-set', { about: bob.id, colour: 'red', note: 'raises every button' });
    await ann.client.ok('note-set', {
      about: bob.id,
      colour: 'orange',
      note: 'raises every button; folds to 3-bets',
    });
    await ann.client.ok('note-set', { about: cleo.id, colour: null, note: 'new' });
    const elsewhere = await TestClient.connect(room);
    await elsewhere.ok('resume', { token: ann.token });
    const { notes } = await elsewhere.ok('notes-list');
    expect(new Map(notes.map(({ about, colour, note }) => [about.id, { colour, note }]))).toEqual(
      new Map([
        [bob.id, { colour: 'orange', note: 'raises every button; folds to 3-bets' }],
        [cleo.id, { colour: null, note: 'new' }],
      ]),
    );
    // By the name of the player each is about.
    const names = notes.map((note) => note.about.name);
    expect(names).toEqual([...names].sort());
    expect((await bob.client.ok('notes-list')).notes).toEqual([]);
    await ann.client.ok('note-set', { about: cleo.id, colour: null, note: '' });
    expect((await ann.client.ok('notes-list')).notes.map((note) => note.about.id)).toEqual([bob.id]);
    for (const client of [ann.client, bob.client, cleo.client, elsewhere]) client.close();
  });

  it('an unknown player, a colour not in the palette, a note over 500 characters and a logged-out socket are refused, changing nothing', async () => {
    const ann = await signedUp(room);
    const bob = await signedUp(room);
    expect(await ann.client.request('note-set', { about: 999_999, colour: null, note: 'x' })).toMatchObject({
      code: 'UNKNOWN_USER',
    });
    expect(await ann.client.request('note-set', { about: bob.id, colour: 'pink', note: 'x' })).toMatchObject({
      code: 'BAD_MESSAGE',
    });
    expect(
      await ann.client.request('note-set', { about: bob.id, colour: null, note: 'x'.repeat(501) }),
    ).toMatchObject({ code: 'BAD_MESSAGE' });
    const anonymous = await TestClient.connect(room);
    expect(await anonymous.request('notes-list')).toMatchObject({ code: 'NOT_AUTHENTICATED' });
    expect((await ann.client.ok('notes-list')).notes).toEqual([]);
    for (const client of [ann.client, bob.client, anonymous]) client.close();
  });
});
