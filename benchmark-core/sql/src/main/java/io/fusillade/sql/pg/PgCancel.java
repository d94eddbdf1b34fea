package io.fusillade.sql.pg;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL's cancel request, sent on a connection of its own: a CancelRequest message with the
 * session's process id and secret key (from its BackendKeyData); the server stops the statement
 * that session runs, then closes the connection. Nothing comes back; a cancel that cannot be sent
 * is only logged: the request it was for has ended already, and its connection is closed when the
 * server does not answer (see {@code PgConnection#expire}).
 */
final class PgCancel extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PgCancel.class);

  /** The connect timeout of a cancel request's connection. */
  private static final int CONNECT_MILLIS = 2_000;

  /** How long the connection may stay open: the server closes it once it has read the request. */
  private static final long OPEN_SECONDS = 5;

  private final int processId;
  private final int secretKey;

  private PgCancel(int processId, int secretKey) {
    this.processId = processId;
    this.secretKey = secretKey;
  }

  /** Sends the cancel request for session {@code processId} to {@code server} from {@code loop}. */
  static void send(
      InetSocketAddress server,
      String label,
      EventLoop loop,
      ChannelFactory<? extends Channel> channels,
      int processId,
      int secretKey) {
    new Bootstrap()
        .group(loop)
        .channelFactory(channels)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_MILLIS)
        .handler(new PgCancel(processId, secretKey))
        .connect(server)
        .addListener(
            future -> {
              if (!future.isSuccess()) {
                LOG.debug(
                    "cannot send a cancel request to {}: {}", label, future.cause().getMessage());
              }
            });
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ByteBuf out = ctx.alloc().ioBuffer(16);
    PgMessages.cancelRequest(out, processId, secretKey);
    ctx.writeAndFlush(out);
    ctx.executor().schedule(() -> ctx.close(), OPEN_SECONDS, TimeUnit.SECONDS);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ReferenceCountUtil.release(msg);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }
}
