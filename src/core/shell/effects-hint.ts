// Could the on-demand effects module (effects.ts) find anything in this command?
// A cheap look at the words, run on every command: the module loads only when
// this says yes, so `npm test` or `git status` never pays for its tables.
// Every word effects.ts acts on has a stem here (test/core/shell/effects.test.ts checks it).
export const EFFECT_HINT =
  /delet|destr|drop|reset|purg|wipe|flush|trunc|remov|\brm|\brb\b|\bdel|uninst|yank|publish|revok|disabl|deprec|termin|regist|teardown|nuke|erase|unset|undefine|retire|unlist|push|upload|release|visib|public|allusers|\.env|\.key\b|\.pem\b|\.p12|\.pfx|\.jks|keystore|id_|credential|secret|sudoers|tables|setenforce|aa-|apparmor|auditctl|systemctl|service|chmod|sysctl|passwd|spctl|vacuum|zap|sync|mirror|deploy|obliterate|unlink|trash|del\b|remove\b|discard|deinit|superblock|prune|access|archiv/i;
