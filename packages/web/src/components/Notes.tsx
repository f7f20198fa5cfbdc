import { NOTE_COLOURS, type NoteColour } from '@felt/protocol';
import { useState } from 'react';
import { useAppState, useStore } from '../hooks';

/**
 * A player's name at the table with the viewer's own note on him: the colour tag before the name, the
 * note as its tooltip, and the name a button that opens the note to edit (notes are kept with his
 * account on the server and seen by nobody else).
 */
export function SeatName({ account, name }: { account: number; name: string }) {
  const state = useAppState();
  const [editing, setEditing] = useState(false);
  const note = state.notes[account];
  return (
    <>
      {note?.colour == null ? null : (
        <span className={`note-tag note-${note.colour}`} aria-label={`Tagged ${note.colour}`} />
      )}
      <button
        type="button"
        className="link seat-player"
        title={note?.note === undefined || note.note === '' ? 'Add a note' : note.note}
        aria-label={`Note on ${name}`}
        onClick={() => {
          setEditing(true);
        }}
      >
        {name}
      </button>
      {editing ? (
        <NoteEditor
          account={account}
          name={name}
          onClose={() => {
            setEditing(false);
          }}
        />
      ) : null}
    </>
  );
}

function NoteEditor({ account, name, onClose }: { account: number; name: string; onClose: () => void }) {
  const state = useAppState();
  const store = useStore();
  const saved = state.notes[account];
  const [colour, setColour] = useState<NoteColour | null>(saved?.colour ?? null);
  const [text, setText] = useState(saved?.note ?? '');
  return (
    <form
      className="note-editor"
      aria-label={`Note on ${name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void store.setNote(account, colour, text).then((done) => {
          if (done) onClose();
        });
      }}
    >
      <fieldset className="note-colours">
        <legend>Tag</legend>
        {[null, ...NOTE_COLOURS].map((option) => (
          <label
            key={option ?? 'none'}
            className={`note-tag note-${option ?? 'none'}`}
            title={option ?? 'none'}
          >
            <input
              type="radio"
              name={`colour-${account}`}
              aria-label={option ?? 'no tag'}
              checked={colour === option}
              onChange={() => {
                setColour(option);
              }}
            />
          </label>
        ))}
      </fieldset>
      <textarea
        aria-label="Note"
        maxLength={500}
        rows={3}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
        }}
      />
      <div className="note-buttons">
        <button type="submit" className="primary">
          Save
        </button>
        <button type="button" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
