import { admin } from './admin.js';
import { bench } from './bench.js';
import { bots } from './bots.js';
import type { Command } from './command.js';
import { demo } from './demo.js';
import { odds } from './odds.js';
import { replay } from './replay.js';
import { serve } from './serve.js';
import { showdown } from './showdown.js';
import { simulate } from './simulate.js';

/** Every `felt` command by name. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  showdown,
  odds,
  demo,
  replay,
  simulate,
  serve,
  bench,
  admin,
  bots,
};
