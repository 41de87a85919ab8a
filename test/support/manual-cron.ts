// Tests drive cron from their fake clock with the same engine the sandbox drives from its movable one.
export { createManualCron, type ManualCron } from '../../tools/sandbox/clock-driven-cron.js';
