@_exported import RoteModel
