package io.distlock.tck;

/** Rules of SPEC.md: see there. */
public interface CloseRules extends TckSupport {
}
