/**
 * Lets a reader stop early: `winnow status | head -1` closes the pipe after one line, and the next
 * write to stdout fails with EPIPE. That is the reader's choice, not a failure of the command: the
 * rest of the output is dropped and the command finishes (closing what it opened) with its own exit
 * status. Any other error on stdout stays an error.
 */
export function tolerateClosedStdout(stdout: NodeJS.WriteStream = process.stdout): void {
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
