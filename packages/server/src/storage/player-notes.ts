/**
 * A player's private notes on other players, with a colour tag each, as the big rooms keep them: his
 * own, kept with his account (so they follow him to any browser), never shown to anybody else.
 */
import type { NoteColour } from '@felt/protocol';
import type { StorageResult, UserId } from './common.js';

export { NOTE_COLOURS, type NoteColour } from '@felt/protocol';

/** The longest note kept. */
export const NOTE_MAX_LENGTH = 500;

export interface PlayerNote {
  readonly about: UserId;
  /** The name of the player the note is about. */
  readonly aboutName: string;
  readonly colour: NoteColour | null;
  readonly note: string;
  /** Ms since the epoch. */
  readonly updatedAt: number;
}

export interface PlayerNotes {
  /** `owner`'s notes, by the name of the player each is about. */
  notesOf(owner: UserId): Promise<PlayerNote[]>;
  /** Whether the two players were dealt into one hand together (a hand started, finished or not). */
  playedTogether(one: UserId, other: UserId): Promise<boolean>;
  /**
   * Writes `owner`'s note on `about`, replacing the last one; an empty note without a colour removes
   * it. UNKNOWN_USER when either account does not exist; BAD_REQUEST for a note too long.
   */
  setNote(
    owner: UserId,
    about: UserId,
    note: { readonly colour: NoteColour | null; readonly note: string },
  ): Promise<StorageResult<void>>;
}
