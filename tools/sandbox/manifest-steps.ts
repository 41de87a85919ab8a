// The app's custom steps as manifest.yml declares them (`functions:`), read once for the two Workflow
// Builder stand-ins: the sandbox runs a typed step from them (workflow-runs.ts), and both the sandbox
// and the fake Slack hold a step's completion to its declared outputs (workflow-functions.ts), since
// Slack knows a function only from the manifest the app was installed with.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

const parameters = z.record(z.string(), z.object({ type: z.string(), is_required: z.boolean().optional() }));
const manifestSteps = z.object({
  functions: z.record(
    z.string(),
    z.object({ title: z.string(), input_parameters: parameters, output_parameters: parameters }),
  ),
});

/** The input type Slack fills in itself, from the person who started the workflow or clicked in it. */
export const USER_CONTEXT = 'slack#/types/user_context';

export type ManifestStep = z.infer<typeof manifestSteps>['functions'][string];
export type ManifestParameters = ManifestStep['output_parameters'];

/** The app's steps by callback_id, as its manifest declares them: Workflow Builder knows them from there alone. */
export function readManifestSteps(): Record<string, ManifestStep> {
  const text = readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8');
  return manifestSteps.parse(parseYaml(text)).functions;
}
