/**
 * Telling a player it is his turn when he is looking elsewhere: the page's title flashes (it shows in
 * the browser's tab strip, also while the tab is in the background), the table's tab flashes (styles),
 * and a short tone sounds when a table starts waiting for him, unless he switched sounds off.
 */
import { useEffect, useRef } from 'react';
import type { AppState } from './state/store';

export const BASE_TITLE = 'Felt';

/** The open tables waiting for this player's decision, in the order they were opened. */
export function tablesAwaiting(state: Pick<AppState, 'open' | 'tables'>): string[] {
  return state.open.filter((tableId) => state.tables[tableId]?.legal != null);
}

/** The title at each beat of the flashing: the alert, then the plain title. */
export function turnTitle(waiting: number, beat: number): string {
  if (waiting === 0 || beat % 2 === 1) return BASE_TITLE;
  return waiting === 1 ? `▶ Your turn — ${BASE_TITLE}` : `▶ Your turn at ${waiting} tables — ${BASE_TITLE}`;
}

/** Tables that wait now and did not before: each deserves a tone. */
export function newlyAwaiting(before: readonly string[], now: readonly string[]): string[] {
  return now.filter((tableId) => !before.includes(tableId));
}

let audio: AudioContext | null = null;

/** A short two-note chime from an oscillator: no sound file to load, nothing to fetch. */
function chime(): void {
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [offset, frequency] of [
      [0, 660],
      [0.12, 880],
    ] as const) {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.12, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.001, start + offset + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.25);
    }
  } catch {
    // A browser without Web Audio, or one that refuses to play before the page was used: no tone.
  }
}

export function useTurnAlert(state: AppState): void {
  const waiting = tablesAwaiting(state);
  const key = waiting.join('\n');
  const before = useRef<readonly string[]>([]);
  const sound = state.prefs.sound;
  useEffect(() => {
    if (sound && newlyAwaiting(before.current, waiting).length > 0) chime();
    before.current = waiting;
    // `key` stands for `waiting`, which is a new array at every render.
  }, [key, sound]);
  useEffect(() => {
    let beat = 0;
    document.title = turnTitle(waiting.length, beat);
    if (waiting.length === 0) return undefined;
    const timer = setInterval(() => {
      document.title = turnTitle(waiting.length, ++beat);
    }, 1000);
    return () => {
      clearInterval(timer);
      document.title = BASE_TITLE;
    };
  }, [key]);
}
