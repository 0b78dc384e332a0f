/* checkpoint.h - periodic checkpoints of heat (libckpt.so). */
#ifndef HEAT_CHECKPOINT_H
#define HEAT_CHECKPOINT_H

#include "grid.h"

int write_checkpoint(const struct block *b, const double *u, int step, const char *path);

#endif
