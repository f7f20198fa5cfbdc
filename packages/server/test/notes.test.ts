/**
 * Players' notes over the real protocol, against a running room: a note and its colour tag are the
 * writer's own, kept with his account (another connection of his sees them), never shown to anyone
 * else; bad requests are refused and change nothing; a note names only a player its writer has met at a
 * table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedUp, TestClient, startTestRoom, type TestRoom } from './transport-client.js';

/** A play-money table of the built-in set; each test seats its players at a seat of its own. */
const TABLE = 'holdem-nl-play-100';

async function sit(client: TestClient, seat: number): Promise<void> {
  await client.ok('seat-take', { tableId: TABLE, seat, buyIn: 5000 });
}

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
    await sit(bob.client, 1);
    await sit(cleo.client, 2);
    await ann.client.ok('table-open', { tableId: TABLE });
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
    for (const client of [bob.client, cleo.client]) await client.ok('seat-leave', { tableId: TABLE });
    for (const client of [ann.client, bob.client, cleo.client, elsewhere]) client.close();
  });

  it('an unknown player, a colour not in the palette, a note over 500 characters and a logged-out socket are refused, changing nothing', async () => {
    const ann = await signedUp(room);
    const bob = await signedUp(room);
    await sit(bob.client, 3);
    await ann.client.ok('table-open', { tableId: TABLE });
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
    await bob.client.ok('seat-leave', { tableId: TABLE });
    for (const client of [ann.client, bob.client, anonymous]) client.close();
  });

  it('a note on a player never met at a table is refused as an unknown one, and no list names him', async () => {
    const ann = await signedUp(room);
    const stranger = await signedUp(room);
    const unknown = await ann.client.request('note-set', { about: 999_999, colour: null, note: 'x' });
    const unmet = await ann.client.request('note-set', { about: stranger.id, colour: 'red', note: 'x' });
    expect(unmet).toMatchObject({ op: 'error', code: 'UNKNOWN_USER' });
    // The same words as for no account at all: the answer does not tell whether the id exists.
    expect({ ...unmet, id: 0 }).toEqual({ ...unknown, id: 0 });
    expect((await ann.client.ok('notes-list')).notes).toEqual([]);
    // Once he sits at a table she has open, she has met him.
    await sit(stranger.client, 4);
    await ann.client.ok('table-open', { tableId: TABLE });
    await ann.client.ok('note-set', { about: stranger.id, colour: 'red', note: 'x' });
    expect((await ann.client.ok('notes-list')).notes.map((note) => note.about.id)).toEqual([stranger.id]);
    await stranger.client.ok('seat-leave', { tableId: TABLE });
    for (const client of [ann.client, stranger.client]) client.close();
  });
});
