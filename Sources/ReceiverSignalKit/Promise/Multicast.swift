/// Shares one subscription to an upstream signal per key among every subscriber of that key —
/// SwiftSignalKit's `Multicast`.
///
/// ```swift
/// let downloads = Multicast<Progress>()
/// let a = downloads.get(key: "a.png", signal: download("a.png")).start(next: showA)  // starts the download
/// let b = downloads.get(key: "a.png", signal: download("a.png")).start(next: showB)  // joins it
/// a.dispose()
/// b.dispose()   // the last one: the download is disposed and the key forgotten
/// ```
///
/// Each key is a `.hot` pair, fed by the one upstream subscription: a subscriber receives the
/// values sent after it joined (no replay), in the order the upstream sent them.
///
/// When the last subscriber of a key leaves, the upstream subscription is disposed (SwiftSignalKit
/// forgets the key but lets the upstream run on).
public final class Multicast<T> {
    @usableFromInline let channels = Locked<[String: Entry]>([:])

    /// A key's pair, the upstream subscription that feeds it, and how many subscribers it has.
    @usableFromInline struct Entry {
        @usableFromInline let channel: Channel
        @usableFromInline var subscribers: Int

        @inlinable init(channel: Channel, subscribers: Int) {
            (self.channel, self.subscribers) = (channel, subscribers)
        }
    }

    @usableFromInline final class Channel {
        @usableFromInline let transmitter: Receiver<T>.Transmitter
        @usableFromInline let receiver: Receiver<T>
        @usableFromInline let upstream = MetaDisposable()

        @inlinable init() { (transmitter, receiver) = Receiver<T>.make() }
    }

    /// Makes a multicast with no keys.
    ///
    /// ```swift
    /// let shared = Multicast<Data>()
    /// ```
    public init() {}

    /// A signal that joins the subscription to `signal` shared under `key`, starting it if the
    /// key has none.
    ///
    /// ```swift
    /// multicast.get(key: "feed", signal: fetchFeed()).start(next: show)
    /// ```
    ///
    /// The first start for a key starts `signal`; later starts join it and receive only values
    /// sent after they joined. When `signal` completes, the key is forgotten (the next start
    /// starts a new upstream) but its subscribers are not completed: they receive nothing more.
    /// When the last subscriber leaves, the key is forgotten and the upstream is disposed.
    /// The signal and its subscriptions keep the multicast alive.
    ///
    /// - Parameters:
    ///   - key: What identifies the shared subscription.
    ///   - signal: The upstream, started only by the first start for `key`.
    /// - Returns: A signal that never completes.
    @inlinable public func get(key: String, signal: Signal<T, NoError>) -> Signal<T, NoError> {
        Signal(start: { next, _, _ in
            let (channel, isFirst) = self.join(key)
            let listening = channel.receiver.listen { next?($0) }
            if isFirst {
                let transmitter = channel.transmitter
                channel.upstream.set(
                    signal.start(next: { transmitter.broadcast($0) }, completed: { self.forget(key, channel) }))
            }
            return ActionDisposable {
                listening.dispose()
                self.leave(key, channel)
            }
        })
    }

    @inlinable func join(_ key: String) -> (Channel, isFirst: Bool) {
        channels.withLock { channels in
            if let entry = channels[key] {
                channels[key]?.subscribers += 1
                return (entry.channel, false)
            }
            let channel = Channel()
            channels[key] = Entry(channel: channel, subscribers: 1)
            return (channel, true)
        }
    }

    /// Takes one subscriber off; the last one disposes the upstream (after unlocking).
    @inlinable func leave(_ key: String, _ channel: Channel) {
        let isLast = channels.withLock { channels -> Bool in
            guard channels[key]?.channel === channel else { return false }  // forgotten at completion
            channels[key]?.subscribers -= 1
            guard channels[key]?.subscribers == 0 else { return false }
            channels[key] = nil  // not the channel's last reference: the caller holds it
            return true
        }
        if isLast { channel.upstream.dispose() }
    }

    /// The upstream completed: the next start for `key` starts a new one.
    @inlinable func forget(_ key: String, _ channel: Channel) {
        channels.withLock { channels in
            if channels[key]?.channel === channel { channels[key] = nil }  // the caller holds `channel`
        }
    }
}

extension Multicast: Sendable where T: Sendable {}
