/**
 * Every ADR opens with its Status and Date, and a decision that supersedes or
 * amends another says so on both sides: the newer one names what it replaces
 * ("Supersedes", "Amends") and the older one names what replaced it
 * ("Superseded by", "Amended by"). A reader landing on an old ADR then learns
 * it no longer holds whole without searching the folder.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ADR_DIR = path.resolve(import.meta.dirname, '../../docs/adr');

type Relation = 'supersedes' | 'superseded-by' | 'amends' | 'amended-by';

/** Each relation field as written in a header, and the field the other ADR must carry back. */
const FIELDS: ReadonlyArray<{ relation: Relation; pattern: RegExp; inverse: Relation }> = [
  { relation: 'supersedes', pattern: /^- Supersedes(?: in part)?: (.*)$/, inverse: 'superseded-by' },
  { relation: 'superseded-by', pattern: /^- Superseded(?: in part)? by: (.*)$/, inverse: 'supersedes' },
  { relation: 'amends', pattern: /^- Amends: (.*)$/, inverse: 'amended-by' },
  { relation: 'amended-by', pattern: /^- Amended by: (.*)$/, inverse: 'amends' },
];

interface AdrHeader {
  file: string;
  number: string;
  status: string | undefined;
  date: string | undefined;
  /** Header lines that name an ADR superseding or amending outside the four fields. */
  looseMentions: string[];
  relations: Map<Relation, Set<string>>;
}

/** The ADR numbers a relation names, outside its parenthesised explanations (which may cite others). */
function namedAdrs(value: string): string[] {
  const bare = value.replace(/\([^)]*\)/g, '');
  return [...bare.matchAll(/ADR (\d{4})/g)].map((match) => match[1]!);
}

/** A Status that names the ADR which superseded or amended it ("Superseded by ADR 0064") declares that relation. */
const STATUS_RELATIONS: ReadonlyArray<{ relation: Relation; pattern: RegExp }> = [
  { relation: 'superseded-by', pattern: /superseded(?: in part)? by (ADR \d{4}(?:(?:,| and) ADR \d{4})*)/i },
  { relation: 'amended-by', pattern: /amended by (ADR \d{4}(?:(?:,| and) ADR \d{4})*)/i },
];

function readHeader(file: string, text: string): AdrHeader {
  const number = /^(\d{4})-/.exec(file)?.[1] ?? '';
  const body = text.split('\n');
  const end = body.findIndex((line, index) => index > 0 && line.startsWith('## '));
  const header = body.slice(1, end === -1 ? body.length : end);
  const relations = new Map<Relation, Set<string>>(FIELDS.map((field) => [field.relation, new Set<string>()]));
  const looseMentions: string[] = [];
  let status: string | undefined;
  let date: string | undefined;
  // A field may run on over indented lines: each read as one.
  const fields: string[] = [];
  for (const line of header) {
    if (/^\s{2,}\S/.test(line) && fields.length > 0) fields[fields.length - 1] += ` ${line.trim()}`;
    else fields.push(line);
  }
  for (const line of fields) {
    status ??= /^- Status: (\S.*)$/.exec(line)?.[1];
    date ??= /^- Date: (\d{4}-\d{2}-\d{2})\b/.exec(line)?.[1];
    const field = FIELDS.find((candidate) => candidate.pattern.test(line));
    if (field !== undefined) {
      for (const adr of namedAdrs(field.pattern.exec(line)![1]!)) relations.get(field.relation)!.add(adr);
    } else if (/^- Status: /.test(line)) {
      for (const { relation, pattern } of STATUS_RELATIONS) {
        const named = pattern.exec(line)?.[1];
        if (named !== undefined) for (const adr of namedAdrs(named)) relations.get(relation)!.add(adr);
      }
    } else if (/supersed|amend/i.test(line) && /ADR \d{4}/.test(line)) {
      looseMentions.push(line);
    }
  }
  return { file, number, status, date, looseMentions, relations };
}

const headers = readdirSync(ADR_DIR)
  .filter((name) => /^\d{4}-.*\.md$/.test(name))
  .sort()
  .map((name) => readHeader(name, readFileSync(path.join(ADR_DIR, name), 'utf8')));
const byNumber = new Map(headers.map((header) => [header.number, header]));

describe('ADR headers', () => {
  it('finds the ADRs', () => {
    expect(headers.length).toBeGreaterThan(40);
  });

  it('gives every ADR a Status line and a Date line (YYYY-MM-DD) before its first section', () => {
    const missing = headers
      .filter((header) => header.status === undefined || header.date === undefined)
      .map((header) => header.file);
    expect(missing).toEqual([]);
  });

  it('states superseding and amending only in the four relation fields', () => {
    const loose = headers.flatMap((header) => header.looseMentions.map((line) => `${header.file}: ${line}`));
    expect(loose).toEqual([]);
  });

  it('names an ADR on both sides of every supersede and amend', () => {
    const broken: string[] = [];
    for (const header of headers) {
      for (const field of FIELDS) {
        for (const other of header.relations.get(field.relation)!) {
          const target = byNumber.get(other);
          if (target === undefined) broken.push(`${header.file}: ${field.relation} ADR ${other}, which does not exist`);
          else if (!target.relations.get(field.inverse)!.has(header.number)) {
            broken.push(
              `${header.file}: ${field.relation} ADR ${other}, whose ` +
                `header lacks ${field.inverse} ADR ${header.number}`,
            );
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('gives an ADR whose status says superseded the ADR that superseded it', () => {
    const orphaned = headers
      .filter((header) => /supersed/i.test(header.status ?? '') && header.relations.get('superseded-by')!.size === 0)
      .map((header) => header.file);
    expect(orphaned).toEqual([]);
  });
});

describe('readHeader', () => {
  it('reads a header without Status or Date as missing them, and a loose mention as loose', () => {
    const header = readHeader('0099-x.md', '# 0099 — X\n\nStatus: accepted; amended by ADR 0100\n\n## Context\n');
    expect(header.status).toBeUndefined();
    expect(header.date).toBeUndefined();
    expect(header.looseMentions).toEqual(['Status: accepted; amended by ADR 0100']);
  });

  it('reads the ADRs a relation names before its explanation', () => {
    const header = readHeader(
      '0099-x.md',
      '# X\n\n- Status: Accepted\n- Date: 2026-12-03\n- Amends: ' +
        'ADR 0028 and ADR 0031 (unlike ADR 0005)\n\n## Context\n',
    );
    expect([...header.relations.get('amends')!]).toEqual(['0028', '0031']);
    expect(header.date).toBe('2026-12-03');
  });

  it('reads a Status naming the superseding ADR as that relation, and a field run on over indented lines', () => {
    const header = readHeader(
      '0099-x.md',
      '# X\n\n- Status: Superseded by ADR 0064\n- Date: 2026-12-02\n- Supersedes: ADR 0036 ' +
        '(the point readings); ADR 0031 in its rule\n  and ADR 0032 (cited)\n\n## Context\n',
    );
    expect([...header.relations.get('superseded-by')!]).toEqual(['0064']);
    expect([...header.relations.get('supersedes')!]).toEqual(['0036', '0031', '0032']);
    expect(header.looseMentions).toEqual([]);
  });
});
