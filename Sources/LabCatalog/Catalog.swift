public enum Catalog {}
