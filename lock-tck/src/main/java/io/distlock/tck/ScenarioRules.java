package io.distlock.tck;

/** Rules of SPEC.md: see there. */
public interface ScenarioRules extends TckSupport {
}
