import './post.policy';
import './post.type';
import './post.queries';
import './post.mutations';
