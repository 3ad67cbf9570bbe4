import { buildReferenceKernel } from '../../bench/world/index.js';
import { worldContext } from '../../src/world/index.js';
import { TURN_ATTEMPTS } from '../../bench/world/index.js';
import { CATALOGUE_STRATEGIES } from '../../src/kernel/index.js';
import type { CatalogueStrategyName } from '../../src/kernel/index.js';
import { oneOf } from '../../bench/command-line/index.js';
import { defineCommand } from '../command.js';

interface DemoFlags {
  readonly strategy: CatalogueStrategyName;
}

/** One turn of the reference world through the kernel, printed as its audit trail. */
export const command = defineCommand<DemoFlags>({
  define(command) {
    command
      .description(
        "Runs one turn of the reference world through the kernel and prints each call's outcome, then the audit " +
          'trail and the per-turn counters.',
      )
      .option(
        '--strategy <name>',
        `catalogue strategy: ${CATALOGUE_STRATEGIES.join(', ')}`,
        oneOf(CATALOGUE_STRATEGIES),
        'turn',
      );
  },
  async run({ strategy }) {
    const { kernel, audit, provider } = buildReferenceKernel(strategy);
    const context = worldContext(1);
    const scope = await kernel.openTurnAuthority(context);
    const catalogue = await kernel.listTools(context);
    process.stdout.write(
      `turn opened (${scope.status}); ${catalogue.tools.length} tools listed, ${catalogue.withheldCount} ` +
        `withheld; catalogHash ${catalogue.catalogHash.slice(0, 16)}…\n\n`,
    );
    let i = 0;
    for (const attempt of TURN_ATTEMPTS) {
      i++;
      const result = await kernel.invokeTool(context, {
        id: `call-${i}`,
        tool: attempt.tool,
        arguments: attempt.arguments,
        traceId: attempt.foreignTrace ? 'trace-other' : context.traceId,
        requestedAt: context.now,
      });
      const code = result.status === 'succeeded' ? '' : ` ${result.code}`;
      process.stdout.write(`${attempt.role.padEnd(8)} ${attempt.tool.padEnd(20)} → ${result.status}${code}\n`);
    }
    scope.close();
    process.stdout.write(`\naudit trail (${audit.length} events):\n`);
    for (const event of audit.events) {
      const detail = [event.tool, event.reason, event.cause, event.grantId, event.catalogHash?.slice(0, 12)]
        .filter(Boolean)
        .join(' ');
      process.stdout.write(`  ${event.type.padEnd(32)} ${event.outcome.padEnd(11)} ${detail}\n`);
    }
    const c = kernel.counters;
    process.stdout.write(
      `\nstrategy ${strategy}: ${c.authorityLoads} authority load(s), ${c.derivations} registry ` +
        `derivation(s), ${provider.calls} provider call(s), ${c.decisions} decisions, ${c.auditEvents} audit ` +
        `events, ${kernel.openLeases} lease(s) open\n`,
    );
    return 0;
  },
});
