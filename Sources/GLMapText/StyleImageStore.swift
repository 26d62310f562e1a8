/// The style's images by id (GL JS's `ImageManager` as far as symbol layout needs it): sprite
/// images and images added at run time, with `addImage`/`updateImage`/`removeImage` semantics.
public struct StyleImageStore: Sendable {
    private var images: [String: StyleImage] = [:]
    /// Ids in the order they were added.
    public private(set) var ids: [String] = []

    /// An empty store.
    public init() {}

    /// The image `id`.
    public subscript(id: String) -> StyleImage? { images[id] }

    /// Adds `image` as `id`; throws when the id exists (use `update`) or the metadata does not
    /// fit the image (GL JS fires an error event and leaves the image out).
    public mutating func add(_ id: String, _ image: StyleImage) throws {
        guard images[id] == nil else {
            throw StyleImageError(imageID: id, message: "already exists (updateImage replaces an image)")
        }
        if let problem = image.validationProblem() { throw StyleImageError(imageID: id, message: problem) }
        images[id] = image
        ids.append(id)
    }

    /// Adds the images a sprite load gave, returning the refusals (duplicates, invalid metadata).
    public mutating func add(_ sprites: SpriteLoadResult) -> [StyleImageError] {
        var refused: [StyleImageError] = []
        for (id, image) in sprites.images {
            do { try add(id, image) } catch let e as StyleImageError { refused.append(e) } catch {}
        }
        return refused
    }

    /// Replaces image `id`, which must exist and have the same size; bumps its version.
    public mutating func update(_ id: String, _ image: StyleImage) throws {
        guard let old = images[id] else { throw StyleImageError(imageID: id, message: "does not exist (addImage adds an image)") }
        guard old.data.width == image.data.width, old.data.height == image.data.height else {
            throw StyleImageError(imageID: id, message: "size mismatch between old image (\(old.data.width)x\(old.data.height)) and new image (\(image.data.width)x\(image.data.height))")
        }
        var new = image
        new.version = old.version + 1
        images[id] = new
    }

    /// Removes image `id` (nothing when absent).
    public mutating func remove(_ id: String) {
        guard images.removeValue(forKey: id) != nil else { return }
        ids.removeAll { $0 == id }
    }

    /// The images of `requested` (insertion order, as a tile asks for them) that exist, in the
    /// JavaScript key order GL JS's image response has — the order its atlases pack in.
    public func images(for requested: [String]) -> [(id: String, image: StyleImage)] {
        JSKeyOrder.ordered(requested).compactMap { id in images[id].map { (id, $0) } }
    }
}
