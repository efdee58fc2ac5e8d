// Why a server command (mock-server, web) could not listen, in one line naming the address and what to do: a busy
// port, a port the system keeps for administrators, an address that is not this computer's. Only an error of listening
// on the port asked for: the same codes from anything else the start does (a state folder) mean other things.
import { UsageError } from '../exit-codes';

interface ListenPlace {
  host: string;
  port: number;
}

/** Starts a server; a problem with where it listens becomes a UsageError the user can act on. */
export async function startListening<T>(place: ListenPlace, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    const problem = listenProblem(error, place);
    if (problem === undefined) throw error;
    throw new UsageError(problem);
  }
}

function listenProblem(error: unknown, { host, port }: ListenPlace): string | undefined {
  const failure = error as (NodeJS.ErrnoException & { port?: number }) | undefined;
  // Node leaves the port out of the error of a listen on port 0.
  if (failure?.syscall !== 'listen' || (failure.port ?? 0) !== port) return undefined;
  switch (failure.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use by another program: choose another with --port, or --port 0 for a free one.`;
    case 'EACCES':
    case 'EPERM':
      return `Port ${port} is kept for administrators on this system: choose one from 1024 up with --port, or --port 0 for a free one.`;
    case 'EADDRNOTAVAIL':
      return `${host} is not an address of this computer: give one of its own with --host, such as 127.0.0.1.`;
    default:
      return undefined;
  }
}
