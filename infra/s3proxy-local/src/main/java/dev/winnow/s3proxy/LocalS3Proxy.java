package dev.winnow.s3proxy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * S3Proxy, an S3-compatible server, on 127.0.0.1 (an ephemeral port unless {@code --port} is
 * given), with signed requests required (AWS signature v2 or v4, as the AWS SDKs send them). Its
 * objects live in {@code --dir <folder>} (S3Proxy's filesystem-nio2 store, kept across restarts:
 * tests stop the server and start it again on the same port and folder), else in memory
 * (transient-nio2). Once it serves it prints one line,
 * {@code S3_ENDPOINT=http://127.0.0.1:<port>}, and runs until SIGTERM.
 *
 * <p>Other arguments: {@code --identity <access key>} and {@code --credential <secret key>}
 * (default {@code local-identity} / {@code local-credential}).
 */
public final class LocalS3Proxy {
    private LocalS3Proxy() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = parseArguments(args);
        Properties properties = new Properties();
        String provider = "transient-nio2";
        if (options.containsKey("--dir")) {
            Path dir = Files.createDirectories(Path.of(options.get("--dir")));
            provider = "filesystem-nio2";
            properties.setProperty("jclouds.filesystem.basedir", dir.toAbsolutePath().toString());
        }
        BlobStoreContext context = ContextBuilder.newBuilder(provider)
            // The backend is local: jclouds wants credentials for it all the same, never checked.
            .credentials("local", "local")
            .overrides(properties).build(BlobStoreContext.class);
        BlobStore blobStore = context.getBlobStore();
        S3Proxy proxy = S3Proxy.builder()
            .blobStore(blobStore)
            .endpoint(URI.create("http://127.0.0.1:" + options.getOrDefault("--port", "0")))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, options.getOrDefault("--identity", "local-identity"),
                options.getOrDefault("--credential", "local-credential"))
            .build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                proxy.stop();
            } catch (Exception e) {
                System.err.println("stopping S3Proxy: " + e);
            }
            context.close();
        }, "winnow-s3proxy-shutdown"));
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) Thread.sleep(10);
        System.out.println("S3_ENDPOINT=http://127.0.0.1:" + proxy.getPort());
        System.out.flush();
        Thread.currentThread().join();
    }

    private static Map<String, String> parseArguments(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (!name.equals("--dir") && !name.equals("--port") && !name.equals("--identity") && !name.equals("--credential")) {
                throw new IllegalArgumentException("unknown argument " + name + " (expected --dir, --port, --identity or --credential)");
            }
            if (i + 1 >= args.length) throw new IllegalArgumentException(name + " needs a value");
            options.put(name, args[++i]);
        }
        return options;
    }
}
