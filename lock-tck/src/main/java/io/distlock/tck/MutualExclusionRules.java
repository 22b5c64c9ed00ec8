package io.distlock.tck;

/** Rules of SPEC.md: see there. */
public interface MutualExclusionRules extends TckSupport {
}
