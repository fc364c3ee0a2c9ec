/*
 * pairing_quality.h — the quality half of the criteria report (C5-C21):
 * a proposed Swiss round judged bracket by bracket against the Dutch
 * engine's own pairing of it.  Not part of the rules API; pairing_check.c
 * calls it after the absolute checks.
 */
#ifndef ARBITER_RULES_PAIRING_QUALITY_H
#define ARBITER_RULES_PAIRING_QUALITY_H

#include "pairing_ctx.h"

/* Pairs the round with the engine of c->swiss (Dutch or Burstein) into
 * c->rep->engine and, where the proposal PROP differs, adds ENGINE and, for
 * the Dutch, the quality items C5-C21 bracket by bracket.  Returns 0 or
 * -ENOMEM. */
int pairing_quality_compare(Ctx *c, const PairingCheckProposal *prop);

#endif
