/**
 * Rake: taken by an injected policy (./types.ts `RakePolicy`). The house table of RULES.md §1 is
 * built in: amounts in cents, only pots that reached the game's rake trigger ("no flop, no drop"),
 * €0.01 per full €0.20, pots of €0.20–€0.39 pay €0.02, at most €0.75 with 2 players dealt in, €2.00
 * with 3, €3.00 with 4 to 10.
 */
import type { RakeInput, RakePolicy } from './types.js';

/** The cap in cents by players dealt in (RULES.md §1). */
export function houseRakeCap(playersDealt: number): number {
  if (playersDealt <= 2) return 75;
  if (playersDealt === 3) return 200;
  return 300;
}

/** The house rake in cents (RULES.md §1). */
export const houseRake: RakePolicy = ({ pot, playersDealt, triggered }: RakeInput): number => {
  if (!triggered || pot < 20) return 0;
  const raw = pot < 40 ? 2 : Math.floor(pot / 20);
  return Math.min(raw, houseRakeCap(playersDealt), pot);
};

/** No rake (play money). */
export const noRake: RakePolicy = () => 0;
