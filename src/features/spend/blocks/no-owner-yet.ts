/** Said where a machine's owner would be named, when the owner rule gives it none (report, digest, chart). */
export const NO_OWNER_YET = 'No owner yet';
