/** The players' notes (./player-notes.ts) over the portable query layer: one row per owner and player. */
import { StorageErrorCode } from './common.js';
import { NOTE_COLOURS, NOTE_MAX_LENGTH, type NoteColour, type PlayerNotes } from './player-notes.js';
import { atomically, refuse, requireUser, type SqlContext } from './sql-common.js';
import { intCol, textCol, textColOrNull } from './sql.js';

function colourOf(text: string | null): NoteColour | null {
  if (text === null) return null;
  const colour = NOTE_COLOURS.find((known) => known === text);
  if (colour === undefined) throw new TypeError(`column colour: unknown colour ${text}`);
  return colour;
}

export function sqlPlayerNotes({ driver, clock }: SqlContext): PlayerNotes {
  return {
    async notesOf(owner) {
      const rows = await driver.all(
        `SELECT n.about_id, u.name, n.colour, n.note, n.updated_at
           FROM player_notes n JOIN users u ON u.id = n.about_id
          WHERE n.owner_id = ? ORDER BY u.name`,
        [owner],
      );
      return rows.map((row) => ({
        about: intCol(row, 'about_id'),
        aboutName: textCol(row, 'name'),
        colour: colourOf(textColOrNull(row, 'colour')),
        note: textCol(row, 'note'),
        updatedAt: intCol(row, 'updated_at'),
      }));
    },

    async playedTogether(one, other) {
      // Walks `one`'s hands by hand_players_user and looks each up by the primary key.
      const row = await driver.get(
        `SELECT 1 AS met FROM hand_players a
           JOIN hand_players b ON b.hand_id = a.hand_id AND b.user_id = ?
          WHERE a.user_id = ? LIMIT 1`,
        [other, one],
      );
      return row !== undefined;
    },

    setNote(owner, about, { colour, note }) {
      return atomically(driver, async (tx) => {
        if (note.length > NOTE_MAX_LENGTH)
          refuse(StorageErrorCode.BAD_REQUEST, `a note holds at most ${NOTE_MAX_LENGTH} characters`);
        await requireUser(tx, owner);
        await requireUser(tx, about);
        if (note === '' && colour === null) {
          await tx.run('DELETE FROM player_notes WHERE owner_id = ? AND about_id = ?', [owner, about]);
          return;
        }
        await tx.run(
          `INSERT INTO player_notes (owner_id, about_id, colour, note, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (owner_id, about_id) DO UPDATE
              SET colour = excluded.colour, note = excluded.note, updated_at = excluded.updated_at`,
          [owner, about, colour, note, clock()],
        );
      });
    },
  };
}
