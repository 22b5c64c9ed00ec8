package io.distlock.tck;

/** Rules of SPEC.md: see there. */
public interface LostLeaseRules extends TckSupport {
}
