// A results store holding a search of the given files, kept by the fake contract as the core keeps one: for tests
// that render the results table without the whole app.
import type { FileEntry } from '../../src-shared/api/schemas';
import { ResultsStore } from '../../src-renderer/browse/results.svelte';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { FakeContract } from './fake-contract';

export async function keptResults(files: FileEntry[]): Promise<{ results: ResultsStore; fake: FakeContract }> {
  const fake = new FakeContract();
  fake.handle('search:start', (query) => fake.keepSearch(query, files));
  const results = new ResultsStore(apiClientFrom(fake));
  await results.search({ instrument: files[0]?.instrument ?? 'kcor', product: files[0]?.product ?? 'pb', filters: {} });
  return { results, fake };
}
