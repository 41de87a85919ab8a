// Link unfurling for the fake Slack: the same module the sandbox serves it with, so both refuse the
// same chat.unfurl calls with the same errors.
export { createFakeUnfurls, type FakeUnfurls } from '../../tools/sandbox/link-unfurls.js';
