import type { HandHistoryPayload } from '@felt/protocol';
import { useState } from 'react';
import { shortHex } from '../fair';
import { checkHand, type FairCheck } from '../fair-check';
import { Replayer } from './Replayer';

/** One finished hand of his history: the replayer, and the check that it was dealt from its committed deck. */
export default function HandDetail({ hand, ownName }: { hand: HandHistoryPayload; ownName: string | null }) {
  const [replaying, setReplaying] = useState(true);
  return (
    <>
      {replaying ? (
        <Replayer
          handId={hand.handId}
          phh={hand.phh}
          currency={hand.currency}
          ownName={ownName}
          onClose={() => {
            setReplaying(false);
          }}
        />
      ) : null}
      <div className="downloads">
        <button
          type="button"
          onClick={() => {
            setReplaying(true);
          }}
        >
          Replay on the table
        </button>
        <button
          type="button"
          onClick={() => {
            download(`felt-hand-${hand.handId}.phh`, hand.phh);
          }}
        >
          Download PHH
        </button>
        <button
          type="button"
          onClick={() => {
            download(`felt-hand-${hand.handId}.txt`, hand.text);
          }}
        >
          Download text
        </button>
      </div>
      <details>
        <summary>Text</summary>
        <pre style={{ whiteSpace: 'pre-wrap', fontSize: '0.8rem' }}>{hand.text}</pre>
      </details>
      <Verify phh={hand.phh} ownName={ownName} />
    </>
  );
}

/** Saves `text` as a file of the browser's downloads, as he may see the hand (nothing hidden is in it). */
function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1000);
}

/** The Verify view of a finished hand: checks it in the browser and says what it checked. */
function Verify({ phh, ownName }: { phh: string; ownName: string | null }) {
  const [check, setCheck] = useState<FairCheck | 'checking' | null>(null);
  return (
    <div className="fair-verify" role="region" aria-label="Verify">
      <button
        type="button"
        disabled={check === 'checking'}
        onClick={() => {
          setCheck('checking');
          void checkHand(phh, ownName).then(setCheck);
        }}
      >
        Verify
      </button>
      {check === null ? null : check === 'checking' ? (
        <p className="meta">Checking…</p>
      ) : (
        <VerifyResult check={check} />
      )}
    </div>
  );
}

function VerifyResult({ check }: { check: FairCheck }) {
  switch (check.kind) {
    case 'unreadable':
      return <p data-testid="verify-verdict">This history cannot be checked: {check.reason}</p>;
    case 'not-revealed':
      return (
        <p data-testid="verify-verdict">
          The secret is not revealed yet: it comes with this history 24 hours after the hand (at once when
          every card dealt was shown). Commitment{' '}
          <code title={check.commitment}>{shortHex(check.commitment)}</code>
        </p>
      );
    case 'checked':
      return (
        <>
          <p data-testid="verify-verdict">
            {check.ok
              ? 'Every check passed: this hand was dealt from the committed deck.'
              : 'A check failed: this hand was not dealt as committed.'}
          </p>
          <ul className="log" data-testid="verify-checks">
            {check.lines.map((line) => (
              <li key={line.name} data-status={line.status}>
                {line.status === 'passed' ? '✓' : line.status === 'failed' ? '✗' : '–'} {line.name}:{' '}
                {line.text}
              </li>
            ))}
          </ul>
        </>
      );
  }
}
