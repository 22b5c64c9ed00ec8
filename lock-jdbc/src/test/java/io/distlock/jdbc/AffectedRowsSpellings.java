package io.distlock.jdbc;

import io.distlock.tck.RefusedSetting;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every spelling of {@code useAffectedRows=false} each MySQL-family driver takes, for the kit's §22: a store URI per
 * spelling, on the caller's table. {@link AffectedRowsSpellingsTest} shows on a raw connection that the driver does
 * take each one (an UPDATE that changes nothing then reads 1), so the lists claim nothing the drivers ignore.
 */
final class AffectedRowsSpellings {

    static final String SETTING = "useAffectedRows";
    private static final Pattern HOST = Pattern.compile("//([^/?:]+):(\\d+)/");

    private AffectedRowsSpellings() {
    }

    /** Connector/J ({@code jdbc:mysql:}): query parameters, also of another case or percent-encoded, host sections. */
    static List<RefusedSetting> connectorJ(String uri) {
        return List.of(
                query(uri, "in the query", "useAffectedRows=false"),
                query(uri, "in the query, lower case", "useaffectedrows=false"),
                query(uri, "in the query, name percent-encoded", "use%41ffectedRows=false"),
                host(uri, "in a key-value host section", "(host=%s,port=%s,useAffectedRows=false)"),
                host(uri, "in an address host section", "address=(host=%s)(port=%s)(useAffectedRows=false)"),
                host(uri, "in a bracketed host list", "[(host=%s,port=%s,useAffectedRows=false)]"));
    }

    /** The MariaDB client ({@code jdbc:mariadb:}): query parameters of any case, the last one counts, 0 for false. */
    static List<RefusedSetting> mariadbClient(String uri) {
        return List.of(
                query(uri, "in the query", "useAffectedRows=false"),
                query(uri, "in the query, upper case", "USEAFFECTEDROWS=false"),
                query(uri, "in the query as 0", "useAffectedRows=0"),
                query(uri, "second parameter of another case after =true",
                        "useAffectedRows=true&useaffectedrows=false"));
    }

    private static RefusedSetting query(String uri, String spelling, String parameters) {
        return new RefusedSetting(SETTING, spelling, uri + (uri.contains("?") ? "&" : "?") + parameters);
    }

    private static RefusedSetting host(String uri, String spelling, String section) {
        Matcher m = HOST.matcher(uri);
        if (!m.find()) {
            throw new IllegalArgumentException("no host:port in the test database's URI");
        }
        return new RefusedSetting(SETTING, spelling, uri.substring(0, m.start()) + "//"
                + String.format(section, m.group(1), m.group(2)) + "/" + uri.substring(m.end()));
    }
}
