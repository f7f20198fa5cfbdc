/**
 * The rule for tests that need a service of the machine (PostgreSQL; later NATS, Redis): when it cannot
 * be reached, they FAIL in CI (`CI=true`), where the service is started before every run, and are
 * skipped with a warning elsewhere, so that a developer's machine without it still runs the rest.
 */

/** Whether the service answers `probe`; throws when it does not and CI=true. */
export async function serviceReachable(name: string, probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch (error) {
    const why = `${name} is unreachable (${error instanceof Error ? error.message : String(error)})`;
    if (process.env['CI'] === 'true') {
      throw new Error(`${why}: CI=true, so the tests that need it fail`, { cause: error });
    }
    console.warn(`WARNING: ${why}: the tests that need it are SKIPPED (they fail when CI=true)`);
    return false;
  }
}
