// Reading the Dockerfile the way its checks and the memory benchmark need: instructions by stage, and
// the environment the runtime stage sets, so that what production runs with is read from one place.

export interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions by stage: continuation lines joined, comments dropped. */
export function dockerfileStages(text: string): Instruction[][] {
  const joined = text.replace(/\\\n/g, ' ');
  const stages: Instruction[][] = [];
  for (const line of joined.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(trimmed) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') stages.push([]);
    stages.at(-1)?.push(instruction);
  }
  return stages;
}

/**
 * The variables the last stage's `ENV key=value ...` instructions set. A value is a word, or a
 * double-quoted string holding spaces (`NODE_OPTIONS="--a --b"`), as Docker reads it.
 */
export function runtimeEnvironment(text: string): Record<string, string> {
  const runtime = dockerfileStages(text).at(-1) ?? [];
  const variables: Record<string, string> = {};
  for (const { keyword, args } of runtime) {
    if (keyword !== 'ENV') continue;
    for (const [, name = '', quoted, word] of args.matchAll(
      /([A-Za-z_]\w*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/g,
    )) {
      variables[name] = quoted === undefined ? (word ?? '') : quoted.replace(/\\(.)/g, '$1');
    }
  }
  return variables;
}
