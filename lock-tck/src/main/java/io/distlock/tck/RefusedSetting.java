package io.distlock.tck;

import java.util.Objects;

/**
 * One spelling of a setting a store's README says it refuses, for §22: the setting's name (the refusal's message must
 * name it), how it is written here (for the report: "in a host section", "second parameter, other case") and the
 * whole store URI that carries it. A backend's kit subclass lists only spellings its client library accepts, that is
 * where the setting would take effect if the store let it through.
 *
 * @param setting the setting's name, as the refusal must name it ({@code useAffectedRows})
 * @param spelling how and where this URI writes it
 * @param uri a store URI carrying the setting in that spelling
 */
public record RefusedSetting(String setting, String spelling, String uri) {

    public RefusedSetting {
        Objects.requireNonNull(setting, "setting");
        Objects.requireNonNull(spelling, "spelling");
        Objects.requireNonNull(uri, "uri");
    }

    /** Never the URI, which may carry a password. */
    @Override
    public String toString() {
        return setting + " (" + spelling + ")";
    }
}
