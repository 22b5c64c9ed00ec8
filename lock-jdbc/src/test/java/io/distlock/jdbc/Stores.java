package io.distlock.jdbc;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The three databases as parameters for tests that run on each, every call with a fresh table of its own. */
final class Stores {

    private Stores() {
    }

    /** (label, store URI) for MariaDB through Connector/J, PostgreSQL and embedded H2. */
    static Stream<Arguments> all() {
        return Stream.of(
                Arguments.of("mariadb", Databases.withOptions(Databases.mysql(),
                        "distlock.table=" + Databases.uniqueTable("my"))),
                Arguments.of("postgresql", Databases.withOptions(Databases.postgres(),
                        "distlock.table=" + Databases.uniqueTable("pg"))),
                Arguments.of("h2", "jdbc:h2:mem:" + Databases.uniqueTable("h2") + ";DB_CLOSE_DELAY=-1"
                        + "?distlock.table=" + Databases.uniqueTable("h2")));
    }
}
