import { addressKey } from '../contracts/index.js';
import type { Requirement } from '../contracts/index.js';

/** A declared ceiling's identity for discovery: everything canDiscover reads of it, unambiguously. */
export function ceilingKey(ceiling: Requirement): string {
  const { resource } = ceiling;
  return JSON.stringify([
    resource.namespace,
    ceiling.action,
    resource.owner === undefined ? null : addressKey(resource.owner),
    resource.path,
  ]);
}
