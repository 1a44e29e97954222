import './post.type';
import './post.mutations';
