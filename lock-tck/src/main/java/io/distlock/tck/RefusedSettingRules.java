package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * §22 Refused settings: a setting the store's README says it refuses (because it would weaken safety) is refused in
 * every spelling and position its client library accepts, not only in the one a text check reads. A store that checks
 * the setting's effect on a live connection refuses them all; one that reads the URI text misses some (a second
 * parameter of another case, a driver's host section). The backend's kit subclass lists the spellings
 * ({@link #refusedSettings()}); without them the rule is skipped.
 */
public interface RefusedSettingRules extends TckSupport {

    /**
     * The settings this store refuses, each in every spelling and position its client library accepts; empty (the
     * default) skips §22.
     */
    default List<RefusedSetting> refusedSettings() {
        return List.of();
    }

    /** Opens a store on {@code uri}; the kit's own tests override it for stores that no URI reaches. */
    default LockStore openWithRefusedSetting(String uri) {
        return LockStore.open(uri);
    }

    @Test
    @DisplayName("§22.1 every spelling and position of a refused setting is refused at open, with a message naming it")
    default void rule_22_1_everySpellingOfARefusedSettingIsRefused() {
        List<RefusedSetting> settings = refusedSettings();
        Assumptions.assumeFalse(settings.isEmpty(), "the store's kit subclass lists no refused settings");
        List<String> problems = new ArrayList<>();
        for (RefusedSetting s : settings) {
            LockStore opened = null;
            try {
                opened = openWithRefusedSetting(s.uri());
                problems.add(s + ": the store opened (" + StoreUri.redact(s.uri()) + ")");
            } catch (IllegalArgumentException e) {
                if (e.getMessage() == null || !e.getMessage().contains(s.setting())) {
                    problems.add(s + ": refused, but the message does not name " + s.setting() + ": "
                            + e.getMessage());
                }
            } catch (RuntimeException e) {
                problems.add(s + ": " + e.getClass().getSimpleName() + " instead of IllegalArgumentException: "
                        + e.getMessage());
            } finally {
                if (opened != null) {
                    opened.close();
                }
            }
        }
        assertThat(problems).as("spellings of refused settings that were not refused").isEmpty();
    }
}
