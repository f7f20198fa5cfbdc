import { useState } from 'react';
import { useAppState, useStore } from '../hooks';

/** The longest line the room accepts (the server says so again if a longer one gets through). */
const MAX_CHAT = 200;

/**
 * The table's chat: everyone watching reads it, the players seated there write. A player's lines can
 * be hidden with his name's button (kept in the settings); hidden players' lines are counted, not shown.
 */
export function Chat({ tableId, seated }: { tableId: string; seated: boolean }) {
  const state = useAppState();
  const store = useStore();
  const [text, setText] = useState('');
  const lines = state.chat[tableId] ?? [];
  const muted = new Set(state.prefs.mutedPlayers);
  const me = state.session?.account.id;
  const hidden = lines.filter((line) => muted.has(line.from.id)).length;
  return (
    <div className="panel chat" data-testid="chat">
      <h3 id={`chat-${tableId}`}>Chat</h3>
      <ol className="log chat-lines" aria-labelledby={`chat-${tableId}`} aria-live="polite">
        {lines
          .filter((line) => !muted.has(line.from.id))
          .map((line, index) => (
            <li key={index}>
              <strong>{line.from.name}</strong>: <span className="chat-text">{line.text}</span>
              {line.from.id === me ? null : (
                <button
                  type="button"
                  className="link mute"
                  aria-label={`Mute ${line.from.name}`}
                  title={`Hide ${line.from.name}'s chat`}
                  onClick={() => {
                    store.muteChat(line.from.id, true);
                  }}
                >
                  mute
                </button>
              )}
            </li>
          ))}
      </ol>
      {muted.size > 0 ? (
        <p className="meta">
          {hidden === 0 ? '' : `${hidden} hidden · `}
          <button
            type="button"
            className="link"
            onClick={() => {
              for (const id of muted) store.muteChat(id, false);
            }}
          >
            Unmute everyone
          </button>
        </p>
      ) : null}
      {seated ? (
        <form
          className="chat-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (text.trim() === '') return;
            void store.sendChat(tableId, text).then((sent) => {
              if (sent) setText('');
            });
          }}
        >
          <input
            aria-label="Chat message"
            value={text}
            maxLength={MAX_CHAT}
            onChange={(event) => {
              setText(event.target.value);
            }}
          />
          <button type="submit">Send</button>
        </form>
      ) : null}
    </div>
  );
}
