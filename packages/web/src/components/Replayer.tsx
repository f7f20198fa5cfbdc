import { useEffect, useRef, useState } from 'react';
import { formatMoney, type Currency } from '../format';
import { seatSpots } from '../layout';
import { replayFrames, type Replay } from '../replay';
import { BetChip, FeltOval, SeatPlate, TableCentre } from './Felt';

/** Milliseconds between steps at 1× while playing. */
const STEP_MS = 1200;
const SPEEDS = [0.5, 1, 2, 4] as const;

/** The controls' icons as inline SVG (16×16): no font glyph can be missing. */
const ICONS = {
  first: 'M2 2h2v12H2zM14 2v12L5 8z',
  previous: 'M12 2v12L3 8z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
  next: 'M4 2v12l9-6z',
  last: 'M12 2h2v12h-2zM2 2v12l9-6z',
} as const;

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} />
    </svg>
  );
}

/**
 * A finished hand replayed on a table drawn as the live one (the same seat, board and pot parts), over
 * the page: step by step or playing at a chosen speed, with the winners, their hands named and their
 * winning cards on the last step.
 */
export function Replayer({
  handId,
  phh,
  currency,
  ownName,
  onClose,
}: {
  handId: number;
  phh: string;
  currency: Currency;
  ownName: string | null;
  onClose: () => void;
}) {
  const [replay] = useState<Replay>(() => replayFrames(phh, currency));
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>(1);
  const dialog = useRef<HTMLDivElement>(null);
  const last = replay.frames.length - 1;
  useEffect(() => {
    dialog.current?.focus();
  }, []);
  useEffect(() => {
    if (!playing) return;
    if (step >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => {
      setStep((current) => Math.min(last, current + 1));
    }, STEP_MS / speed);
    return () => {
      clearTimeout(timer);
    };
  }, [playing, step, speed, last]);
  const frame = replay.frames[Math.min(step, last)];
  if (frame === undefined) return null;
  const own = frame.players.find((player) => player.name === ownName);
  const spots = seatSpots(replay.seatCount, own?.seat ?? 0);
  const final = step === last;
  const boardBest = new Set(final ? frame.players.flatMap((player) => player.best) : []);
  const go = (to: number) => {
    setPlaying(false);
    setStep(Math.max(0, Math.min(last, to)));
  };
  return (
    <div
      className="replayer-backdrop"
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div
        className="replayer"
        role="dialog"
        aria-modal="true"
        aria-label={`Replay of hand ${handId}`}
        tabIndex={-1}
        ref={dialog}
        onKeyDown={(event) => {
          // A key pressed in the replayer is the replayer's: none reaches the table's shortcuts below it.
          event.stopPropagation();
          if (event.key === 'Escape') onClose();
          else if (event.key === 'ArrowRight') go(step + 1);
          else if (event.key === 'ArrowLeft') go(step - 1);
        }}
      >
        <div className="replayer-head">
          <h3>Replay of hand #{handId}</h3>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
        <FeltOval>
          <TableCentre
            caption={final ? 'Finished' : `Step ${step + 1}`}
            board={frame.board.length > 0 ? frame.board : null}
            boardLabel="Board"
            fourColour={false}
            best={boardBest}
            pots={[{ text: `Pot ${formatMoney(frame.pot, currency)}`, testId: 'replay-pot' }]}
          />
          {frame.players.map((player, index) => {
            const spot = spots[player.seat];
            if (spot === undefined) return null;
            const best = new Set(player.best);
            return (
              <div key={index}>
                <SeatPlate
                  seatNumber={player.seat}
                  label={player.name}
                  name={player.name}
                  stack={formatMoney(player.stack, currency)}
                  stackTestId={`replay-stack-${player.seat}`}
                  cards={{
                    cards: player.cards,
                    height: 46,
                    label: `${player.name}'s cards`,
                    ...(final ? { best } : {}),
                  }}
                  fourColour={false}
                  status={player.folded ? 'Folded' : null}
                  won={player.won > 0 ? `Wins ${formatMoney(player.won, currency)}` : null}
                  handName={player.hand}
                  me={player.name === ownName}
                  acting={frame.actor === index}
                  folded={player.folded}
                  spot={spot}
                />
                {player.bet > 0 ? (
                  <BetChip
                    spot={spot}
                    amount={formatMoney(player.bet, currency)}
                    label={`${player.name} bets ${formatMoney(player.bet, currency)}`}
                  />
                ) : null}
              </div>
            );
          })}
        </FeltOval>
        <p className="replayer-line" aria-live="polite" data-testid="replay-line">
          {frame.line}
        </p>
        <div className="replayer-controls" role="group" aria-label="Replay controls">
          <button
            type="button"
            aria-label="First step"
            title="First step"
            onClick={() => {
              go(0);
            }}
          >
            <Icon name="first" />
          </button>
          <button
            type="button"
            aria-label="Previous step"
            title="Previous step"
            onClick={() => {
              go(step - 1);
            }}
          >
            <Icon name="previous" />
          </button>
          <button
            type="button"
            aria-label={playing ? 'Pause' : 'Play'}
            title={playing ? 'Pause' : 'Play'}
            onClick={() => {
              if (!playing && step >= last) setStep(0);
              setPlaying(!playing);
            }}
          >
            <Icon name={playing ? 'pause' : 'play'} />
          </button>
          <button
            type="button"
            aria-label="Next step"
            title="Next step"
            onClick={() => {
              go(step + 1);
            }}
          >
            <Icon name="next" />
          </button>
          <button
            type="button"
            aria-label="Last step"
            title="Last step"
            onClick={() => {
              go(last);
            }}
          >
            <Icon name="last" />
          </button>
          <span className="step" data-testid="replay-step">
            {step + 1} / {replay.frames.length}
          </span>
          <label className="inline">
            Speed{' '}
            <select
              aria-label="Speed"
              value={speed}
              onChange={(event) => {
                setSpeed(Number(event.target.value) as (typeof SPEEDS)[number]);
              }}
            >
              {SPEEDS.map((value) => (
                <option key={value} value={value}>
                  {value}×
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
    </div>
  );
}
