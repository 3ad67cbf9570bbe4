import type { CatalogueSources, CatalogueStrategy, CatalogueStrategyName } from './catalogue-strategy.js';
import { RederiveStrategy } from './rederive-strategy.js';
import { SharedStrategy } from './shared-strategy.js';
import { TurnStrategy } from './turn-strategy.js';

export function createCatalogueStrategy(name: CatalogueStrategyName, sources: CatalogueSources): CatalogueStrategy {
  switch (name) {
    case 'rederive':
      return new RederiveStrategy(sources);
    case 'shared':
      return new SharedStrategy(sources);
    case 'turn':
      return new TurnStrategy(sources);
  }
}
