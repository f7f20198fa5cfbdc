import { clusterGroup } from './cluster.js';
import { evalGroup } from './eval/group.js';
import { fairGroup } from './fair.js';
import { handsGroup } from './hands.js';
import { oddsGroup } from './odds.js';
import type { BenchGroup } from './registry.js';
import { roomGroup } from './room.js';
import { startupGroup } from './startup/group.js';
import { storageGroup } from './storage.js';
import { tournamentGroup } from './tournament.js';

/** Every benchmark group, in the order `felt bench` runs them. A new group: its own file, one line here. */
export const GROUPS: readonly BenchGroup[] = [
  evalGroup,
  oddsGroup,
  startupGroup,
  handsGroup,
  fairGroup,
  storageGroup,
  roomGroup,
  tournamentGroup,
  clusterGroup,
];
