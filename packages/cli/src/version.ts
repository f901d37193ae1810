import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository this build lives in, when it is a git checkout (a built copy elsewhere has no `.git`). */
const CHECKOUT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * What `winnow --version` prints: the package's version, and the git commit of the checkout it
 * runs from when it runs from one (`winnow 0.1.0 (commit 3f2a9c1d0b7e)`). The commit is asked of
 * git only here, so that no other command pays for it, and left out when git cannot tell.
 */
export function versionText(): string {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  const commit = checkoutCommit();
  return commit ? `winnow ${version} (commit ${commit})` : `winnow ${version}`;
}

function checkoutCommit(): string | undefined {
  if (!existsSync(`${CHECKOUT}.git`)) return undefined;
  try {
    return (
      execFileSync('git', ['-C', CHECKOUT, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined
    );
  } catch {
    return undefined; // no git on this machine, or not a repository after all
  }
}
