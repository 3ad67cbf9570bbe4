import { buildReferenceKernel } from '../../bench/world/build-world.js';
import { worldContext } from '../../src/world/reference-world.js';
import { TURN_ATTEMPTS } from '../../bench/world/workload.js';
import { isCatalogueStrategyName } from '../../src/kernel/index.js';
import type { Command } from '../main.js';

/** One turn of the reference world through the kernel, printed as its audit trail. */
export const command: Command = {
  summary: 'run one turn of the reference world and print its audit trail',
  async run(argv) {
    const strategy = argv.includes('--strategy') ? argv[argv.indexOf('--strategy') + 1] : 'turn';
    if (!isCatalogueStrategyName(strategy)) {
      process.stderr.write(`costlab demo: --strategy must be rederive, shared or turn\n`);
      return 2;
    }
    const { kernel, audit, provider } = buildReferenceKernel(strategy);
    const context = worldContext(1);
    const scope = await kernel.openTurnAuthority(context);
    const catalogue = await kernel.listTools(context);
    process.stdout.write(`turn opened (${scope.status}); ${catalogue.tools.length} tools listed, ${catalogue.withheldCount} withheld; catalogHash ${catalogue.catalogHash.slice(0, 16)}…\n\n`);
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
      const detail = [event.tool, event.reason, event.cause, event.grantId, event.catalogHash?.slice(0, 12)].filter(Boolean).join(' ');
      process.stdout.write(`  ${event.type.padEnd(32)} ${event.outcome.padEnd(11)} ${detail}\n`);
    }
    const c = kernel.counters;
    process.stdout.write(
      `\nstrategy ${strategy}: ${c.authorityLoads} authority load(s), ${c.derivations} registry derivation(s), ${provider.calls} provider call(s), ${c.decisions} decisions, ${c.auditEvents} audit events, ${kernel.openLeases} lease(s) open\n`,
    );
    return 0;
  },
};
