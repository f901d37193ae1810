package org.elasticsearch.node;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.elasticsearch.common.logging.LogConfigurator;
import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.http.HttpServerTransport;
import org.elasticsearch.plugins.ClasspathPluginsService;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;
import org.elasticsearch.transport.netty4.Netty4Plugin;

/**
 * A real Elasticsearch node on 127.0.0.1 and an ephemeral port, run from the Maven Central jars of
 * the server and its Netty transport (there is no distribution to download here). Its home is a
 * fresh temporary folder, deleted on exit. Once the cluster answers its health API (yellow) it
 * prints one line, {@code ELASTICSEARCH_URL=http://127.0.0.1:<port>}, and runs until SIGTERM.
 *
 * <p>Arguments, for restarting the same node (tests of the indexer's retries): {@code --home <dir>}
 * keeps the data in that folder (created if missing, never deleted), {@code --port <n>} listens on
 * that HTTP port instead of an ephemeral one.
 *
 * <p>Without {@code --seed-hosts} the node is a single-node cluster. With it, the node joins a
 * cluster: {@code --node-name <name>}, {@code --transport-port <n>} (the port the other nodes' seed
 * lists name), {@code --seed-hosts 127.0.0.1:<port>,...} and {@code --initial-master-nodes
 * <name>,...} (the master-eligible nodes that vote in the first election), as in a stock node's
 * {@code elasticsearch.yml}. {@code --cluster-name} defaults to {@code winnow-local}.
 *
 * <p>It lives in {@code org.elasticsearch.node} because {@code NodeConstruction.prepareConstruction}
 * and {@code NodeServiceProvider} are package-private. Only the server's built-in analysers exist
 * (analysis-common is not on Maven Central).
 */
public final class LocalElasticsearch extends Node {
    private LocalElasticsearch(Environment environment) {
        super(NodeConstruction.prepareConstruction(environment, PluginsLoader.createPluginsLoader(Set.of(), Set.of(), Map.of(), false), new NodeServiceProvider() {
            @Override
            PluginsService newPluginService(Environment initial, PluginsLoader loader) {
                return new ClasspathPluginsService(initial.settings(), loader, List.of(Netty4Plugin.class, RootInfoPlugin.class));
            }
        }, true));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parseArguments(args);
        boolean keepHome = options.containsKey("--home");
        Path home = keepHome ? Files.createDirectories(Path.of(options.get("--home"))) : Files.createTempDirectory("winnow-elasticsearch-");
        Settings.Builder builder = Settings.builder()
            .put("path.home", home.toString())
            .put("cluster.name", options.getOrDefault("--cluster-name", "winnow-local"))
            .put("node.name", options.getOrDefault("--node-name", "winnow-local"))
            .put("network.host", "127.0.0.1")
            .put("http.port", options.getOrDefault("--port", "0"))
            .put("transport.port", options.getOrDefault("--transport-port", "0"))
            // A developer's nearly full disk must not turn the index read-only mid-test.
            .put("cluster.routing.allocation.disk.threshold_enabled", false);
        if (options.containsKey("--seed-hosts")) {
            builder.putList("discovery.seed_hosts", List.of(options.get("--seed-hosts").split(",")));
            builder.putList("cluster.initial_master_nodes", List.of(options.getOrDefault("--initial-master-nodes", "").split(",")));
        } else {
            builder.put("discovery.type", "single-node");
        }
        Settings settings = builder.build();
        LogConfigurator.configureWithoutConfig(settings);
        LocalElasticsearch node;
        try {
            node = new LocalElasticsearch(new Environment(settings, null));
        } catch (RuntimeException e) {
            if (!keepHome) deleteRecursively(home);
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (IOException | InterruptedException | RuntimeException e) {
                System.err.println("closing Elasticsearch: " + e);
            }
            if (!keepHome) deleteRecursively(home);
        }, "winnow-elasticsearch-shutdown"));
        node.start();
        int port = node.injector().getInstance(HttpServerTransport.class).boundAddress().publishAddress().getPort();
        String url = "http://127.0.0.1:" + port;
        waitUntilHealthy(url);
        System.out.println("ELASTICSEARCH_URL=" + url);
        System.out.flush();
        Thread.currentThread().join();
    }

    private static final Set<String> OPTIONS =
        Set.of("--home", "--port", "--cluster-name", "--node-name", "--transport-port", "--seed-hosts", "--initial-master-nodes");

    private static Map<String, String> parseArguments(String[] args) {
        Map<String, String> options = new java.util.HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!OPTIONS.contains(args[i]) || i + 1 >= args.length) {
                throw new IllegalArgumentException("usage: LocalElasticsearch [--<option> <value>]... with options " + OPTIONS + "; got " + String.join(" ", args));
            }
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    private static void waitUntilHealthy(String url) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create(url + "/_cluster/health?wait_for_status=yellow&timeout=30s")).build();
        for (int attempt = 0; attempt < 60; attempt++) {
            HttpResponse<String> response = client.send(health, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) return;
            Thread.sleep(500);
        }
        throw new IllegalStateException("Elasticsearch at " + url + " did not become healthy");
    }

    private static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + root + ": " + e);
        }
    }
}
