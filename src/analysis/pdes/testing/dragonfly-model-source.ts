/**
 * A CODES dragonfly-dally model source holding the built-in handler names at known lines
 * (terminal_dally_event 3, terminal_dally_rc_event_handler 8, router_dally_event 13,
 * router_dally_rc_event_handler 16), for tests of handler sources, CodeLenses and heat.
 */
export const DRAGONFLY_DALLY_MODEL_SOURCE = [
  '#include "codes/model-net.h"',
  '',
  'static void terminal_dally_event(terminal_state *s, tw_bf *bf, terminal_dally_message *msg, tw_lp *lp)',
  '{',
  '  s->busy++;',
  '}',
  '',
  'static void terminal_dally_rc_event_handler(terminal_state *s, tw_bf *bf, terminal_dally_message *msg, tw_lp *lp)',
  '{',
  '  s->busy--;',
  '}',
  '',
  'void router_dally_event(router_state *s, tw_bf *bf, terminal_dally_message *msg, tw_lp *lp) {',
  '  terminal_dally_event(0, 0, 0, 0);',
  '}',
  'void router_dally_rc_event_handler(router_state *s, tw_bf *bf, terminal_dally_message *msg, tw_lp *lp) {',
  '}',
].join('\n');
