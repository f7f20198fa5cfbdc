/**
 * The game-security reports' own thread (./index.ts sends it the stored hands page by page): reading
 * every hand's PHH and counting the reports take seconds in a big room, which on the room's thread
 * would hold every table's answers as long.
 */
import { parentPort } from 'node:worker_threads';
import { IntegrityBuilder } from './document.js';
import type { ToIntegrityWorker } from './index.js';

const port = parentPort!;
const builder = new IntegrityBuilder();
port.on('message', (message: ToIntegrityWorker) => {
  if (message.type === 'page') builder.add(message.hands);
  else port.postMessage(builder.document(message.options));
});
