// Workflow Builder's step runs for the fake Slack: the same module the sandbox serves them with, so
// both refuse the same completions with the same errors.
export { createFakeFunctions, type FakeFunctions } from '../../tools/sandbox/workflow-functions.js';
