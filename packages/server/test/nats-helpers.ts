/**
 * NATS for the tests: the machine's server (`FELT_TEST_NATS`, default nats://127.0.0.1:4222). When it
 * cannot be reached the tests that need it fail in CI and are skipped elsewhere (./services.ts).
 */
import { connect } from 'nats';
import { serviceReachable } from './services.js';

export const NATS_URL = process.env['FELT_TEST_NATS'] ?? 'nats://127.0.0.1:4222';

export function natsReachable(): Promise<boolean> {
  return serviceReachable(`NATS at ${NATS_URL}`, async () => {
    const nc = await connect({ servers: NATS_URL, timeout: 3000 });
    await nc.close();
  });
}
