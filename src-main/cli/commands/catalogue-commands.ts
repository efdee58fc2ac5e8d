// about, instruments, products: the catalogue, as tables or as the server's JSON.
import type { CliContext } from '../cli-context';
import { printJson } from '../output/cli-output';
import { EXIT_OK } from '../exit-codes';
import { instrumentsTable, productsTable } from '../output/tables';
import { CLIENT_VERSION } from '../version';

export async function aboutCommand(context: CliContext, options: { json?: boolean }): Promise<number> {
  const about = await context.client.about({ signal: context.signal });
  if (options.json) {
    printJson(context.out, about);
    return EXIT_OK;
  }
  context.out.result(
    [
      `server version: ${about.version}, client version: ${CLIENT_VERSION}`,
      `documentation: ${about.documentation}`,
      `homepage: ${about.homepage}`,
      `support: ${about.support}`,
    ].join('\n'),
  );
  return EXIT_OK;
}

export async function instrumentsCommand(context: CliContext, options: { json?: boolean }): Promise<number> {
  const instruments = await context.client.instruments({ signal: context.signal });
  if (options.json) {
    // The official client's shape: one object per instrument with id, name and its date range.
    printJson(
      context.out,
      instruments.map((i) => ({ id: i.id, name: i.name, 'start-date': i['start-date'], 'end-date': i['end-date'] })),
    );
    return EXIT_OK;
  }
  context.out.result(instrumentsTable(instruments, { header: !context.out.quiet }));
  return EXIT_OK;
}

export async function productsCommand(context: CliContext, options: { instrument: string; json?: boolean }): Promise<number> {
  const products = await context.client.products(options.instrument, { signal: context.signal });
  if (options.json) printJson(context.out, products);
  else context.out.result(productsTable(products.products, { header: !context.out.quiet }));
  return EXIT_OK;
}
