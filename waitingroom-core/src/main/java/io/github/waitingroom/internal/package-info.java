/**
 * Plumbing that the core's packages share and that is no part of its API: public only so that
 * the core's own packages can use it. The module descriptor does not export this package; on the
 * class path, treat it as if it did not either.
 */
@NullMarked
package io.github.waitingroom.internal;

import org.jspecify.annotations.NullMarked;
